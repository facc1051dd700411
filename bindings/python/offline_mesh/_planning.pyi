# Stubs of the private module offline_mesh._planning (the names live in
# the public stubs, __init__.pyi).
from . import Hierarchy as Hierarchy
from . import LevelLocality as LevelLocality
from . import Preset as Preset
from . import check_preset as check_preset
from . import check_preset_yaml as check_preset_yaml
from . import launch_check as launch_check
from . import launch_plan as launch_plan
