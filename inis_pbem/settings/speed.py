"""The speed layers: caches and work done ahead that make the service cheaper, none of which
changes what a player sees.

Environment:
- SPEED_LAYERS (default on): `0` turns every one of them off, so that each request, task and
  email is built from the log as if they did not exist (docs/operations.md lists them). CI runs
  the fast lane once with them off (`.ci/run`): a layer that changed what a player sees would
  show there. Off, the service is slower, never different.
"""

from inis_pbem.env import env_bool

SPEED_LAYERS = env_bool("SPEED_LAYERS", True)
