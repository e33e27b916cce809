"""`python -m handrank`: the same as the `handrank` command."""
from handrank.cli import main

raise SystemExit(main())
