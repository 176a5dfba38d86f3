"""Schemathesis hooks for the wordstats API fuzz run (loaded through SCHEMATHESIS_HOOKS).

The `word` path parameter is documented with the pattern
^[\\p{L}\\p{M}\\p{Nd}]+(['\u2019][\\p{L}\\p{M}\\p{Nd}]+)*$, and the service checks a looked-up word
against exactly that pattern (Unicode general categories, as Java reads them). Schemathesis
generates from an approximation of these Unicode classes made of whole blocks, so it can produce
code points the pattern does not match: unassigned ones (category Cn, e.g. U+20FC in "Combining
Diacritical Marks for Symbols") or symbols and modifiers that share a block with letters or marks
(e.g. U+02C2, category Sk, in "Spacing Modifier Letters"). Such a value is not schema-valid, so
a positive test case holding one is dropped here rather than reported as a "schema-valid request
rejected": the pattern is evaluated exactly, with Python's Unicode database. Nothing else is
filtered; negative test cases are left alone.
"""

import unicodedata
from urllib.parse import unquote

import schemathesis

APOSTROPHES = ("'", "\u2019")


def _is_word_char(c):
    category = unicodedata.category(c)
    return category[0] in ("L", "M") or category == "Nd"


def matches_word_pattern(word):
    """Whether `word` matches the documented pattern, by Unicode categories."""
    if not word or word[0] in APOSTROPHES or word[-1] in APOSTROPHES:
        return False
    previous = None
    for c in word:
        if c in APOSTROPHES:
            if previous in APOSTROPHES:
                return False
        elif not _is_word_char(c):
            return False
        previous = c
    return True


@schemathesis.hook
def filter_path_parameters(context, path_parameters):
    # Positive cases come as a dict; negative ones (meant to break the pattern) are wrapped, and
    # are kept as they are.
    if not isinstance(path_parameters, dict):
        return True
    word = path_parameters.get("word")
    if not isinstance(word, str):
        return True
    # The hook sees the value percent-encoded, as it goes into the URL.
    return matches_word_pattern(unquote(word))
