"""Layer 4, what people read: the public and player views cut from the state, the
output formats, thread posts, PMs, the board (text and picture), the reveal and the
history. Renderers take views, never the state. Imports the layers below."""
