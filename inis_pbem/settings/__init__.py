"""Django settings, one module per concern; every deployment-specific value comes from the
environment (see README.md, "Configuration").

The order matters: `base` defines DEBUG and BASE_DIR, which the others read.
"""

from .base import *  # noqa: F401,F403
from .celery import *  # noqa: F401,F403
from .database import *  # noqa: F401,F403
from .email import *  # noqa: F401,F403
from .reach import *  # noqa: F401,F403
from .relay import *  # noqa: F401,F403
from .security import *  # noqa: F401,F403
from .signin import *  # noqa: F401,F403
from .speed import *  # noqa: F401,F403
