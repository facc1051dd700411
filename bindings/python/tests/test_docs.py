"""Every example in docs/python.md runs as written and prints what it shows.

Each ```python block is a doctest (>>> lines and their output); the blocks
run in order in one namespace, as a reader would paste them.
"""

import doctest
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "python.md"


def test_python_md_examples():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"),
                        flags=re.S)
    assert len(blocks) >= 6
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    for number, block in enumerate(blocks, 1):
        assert ">>>" in block, f"block {number} has no example"
        test = parser.get_doctest(block, globs, f"python.md block {number}",
                                  str(DOC), 0)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 20
