"""Session setting for every pytest run from the repository root, nbval's included.

The book's notebooks store the static form of their interactive figures
(``nbcourse.interact``); the kernels nbval starts inherit this environment, so
they display that form too and nbval compares like with like.
"""

import os

os.environ["NBCOURSE_FIGURES"] = "static"
