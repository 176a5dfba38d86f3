"""Schemathesis hooks for the wordstats API fuzz run (loaded through SCHEMATHESIS_HOOKS).

The `word` path parameter is documented with the pattern
^[\\p{L}\\p{M}\\p{Nd}]+(['\u2019][\\p{L}\\p{M}\\p{Nd}]+)*$. Schemathesis generates from an
approximation of these Unicode classes made of whole blocks, so it can produce unassigned code
points (general category Cn, e.g. U+20FC in "Combining Diacritical Marks for Symbols"), which
the pattern does not match and the tokenizer does not take as letters. Such a value is not
schema-valid, so it is dropped here rather than reported as a "schema-valid request rejected".
Nothing else is filtered.
"""

import unicodedata
from urllib.parse import unquote

import schemathesis


@schemathesis.hook
def filter_path_parameters(context, path_parameters):
    word = (path_parameters or {}).get("word")
    if not isinstance(word, str):
        return True
    # The hook sees the value percent-encoded, as it goes into the URL.
    return all(unicodedata.category(c) != "Cn" for c in unquote(word))
