# The suite's configuration lives in the top-level lit.cfg.py; this file lets
# `lit test/<subdir>` find it while keeping test/ as the suite root.
import os
lit_config.load_config(config, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lit.cfg.py'))
