"""``python -m tagstr_runtime.migrate``."""

import sys

from tagstr_runtime.migrate import main

sys.exit(main())
