"""``python -m ginrummy.cli``: the ``ginrummy`` script."""

from ginrummy.cli import main

main()
