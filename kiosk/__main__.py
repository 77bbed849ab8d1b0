import sys

from kiosk.tools.cli import main

sys.exit(main())
