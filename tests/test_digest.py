"""shmod.base.digest gives exactly what hashlib and hmac give (the chain, checkpoints,
shuffles and the commitment depend on it), without loading OpenSSL at start-up."""
from __future__ import annotations

import hashlib
import hmac
import random
import subprocess
import sys

from scripted import AT

from shmod.base import digest


def test_the_built_in_digests_are_the_standard_ones():
    rng = random.Random(21)
    for size in (0, 1, 31, 32, 63, 64, 65, 200, 5000):
        data = rng.randbytes(size)
        assert digest.sha256_hex(data) == hashlib.sha256(data).hexdigest()
        assert digest.sha256(data).digest() == hashlib.sha256(data).digest()
        assert digest.blake2b(data, digest_size=12).hexdigest() == \
            hashlib.blake2b(data, digest_size=12).hexdigest()
        for key_size in (0, 16, 64, 65, 100):
            key = rng.randbytes(key_size)
            assert digest.hmac_sha256(key, data) == hmac.new(key, data, hashlib.sha256).hexdigest()


def test_status_loads_no_openssl(tmp_path):
    from shmod.log import store

    path = tmp_path / "g.yaml"
    store.new_game(str(path), ["Ann", "Bob", "Cy", "Dee", "Eve"], seed="7d1e4c9a02b3f58e6a0c1d27b94e3f65", created=AT)
    code = ("import sys\nfrom shmod.cli import main\n"
            f"sys.argv = ['shmod', 'status', '-g', {str(path)!r}]\n"
            "try:\n    main.main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('_hashlib', 'hmac', 'hashlib', 'zoneinfo', 'unicodedata')"
            " if m in sys.modules), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "[]"
