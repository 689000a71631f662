"""The docs' checks say what differs: their asserts are rewritten like a test module's."""

import pytest

pytest.register_assert_rewrite("doc_checks")
