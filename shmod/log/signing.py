"""The moderator's signing key: Ed25519 from PyCA's ``cryptography`` (R-CHECKPOINT).

``shmod new`` draws a key pair for every game of format 2. The public half (64 hex
digits) is in the header as ``moderator_key``, in the commitment and in the opening post;
the private half (its raw 32 bytes as 64 hex digits) is in ``secret.signing_key`` and is
never published (``shmod publish`` writes the log without it). Each post's checkpoint
line carries an Ed25519 signature (128 hex digits) that only the holder of the private
half can make, before the reveal and after it.

``cryptography`` is imported inside each function: only the commands that make a post
(and the audit, where it checks a thread) pay for it; ``status`` and the other read
commands never load it (``tests/test_startup.py``).
"""
from __future__ import annotations


def new_key() -> tuple[str, str]:
    """A fresh key pair drawn from the operating system's randomness: ``(private,
    public)``, each 64 hex digits."""
    import secrets

    private = secrets.token_hex(32)
    return private, public_key(private)


def public_key(private: str) -> str:
    """The public half of the private key ``private`` (64 hex digits)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private))
    return key.public_key().public_bytes_raw().hex()


def sign(private: str, message: bytes) -> str:
    """The Ed25519 signature of ``message`` under ``private``, as 128 hex digits."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private)).sign(message).hex()


def verify(public: str, message: bytes, signature: str) -> bool:
    """Whether ``signature`` (hex) is ``public``'s signature of ``message``; False for
    anything malformed."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public))
        key.verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True
