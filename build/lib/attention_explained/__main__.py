import sys

from attention_explained.cli import main

sys.exit(main())
