"""The exact re-score of the tie band is the plain float64 formula, to the bit, however the rows are chunked.

Class of input: any float32 vectors (including zeros, huge and tiny magnitudes) in any number of
rows around the chunk size, any subset of rows in any order, any query.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from primer_memory.long_term.storage import partition
from primer_memory.long_term.storage.partition import VectorIndex

DIM = 8
finite = st.floats(-1e6, 1e6, allow_nan=False, width=32)


@given(st.integers(1, 3 * partition._EXACT_CHUNK + 5).flatmap(
    lambda n: st.tuples(arrays(np.float32, (n, DIM), elements=finite), arrays(np.float32, DIM, elements=finite),
                        st.lists(st.integers(0, n - 1), max_size=2 * n))))
def test_exact_scores_equal_the_plain_formula_bit_for_bit(case: tuple[np.ndarray, np.ndarray, list[int]]) -> None:
    matrix, q, picked = case
    index = VectorIndex(DIM)
    n = len(matrix)
    index.load(list(range(n)), [0] * n, [0] * n, [0] * n, matrix)
    rows = np.array(picked, dtype=np.intp)
    expected = (matrix[rows].astype(np.float64) * q.astype(np.float64)).sum(axis=1)
    assert np.array_equal(index.exact(rows, q), expected)
