"""The write policy's detectors, one module a family; `id_scan`, `token_scan` and `card_windows` hold what they share."""
