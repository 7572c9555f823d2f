"""Adapters that plug the series' memory into what learners already use, and a real model into the loop.

Each module imports its framework only when used, so `import primer_memory` needs none of them:
`model` (the Model protocol and the deterministic stand-in), `proposals` (what a model proposes, checked by
code), `llama` (SmolLM2-135M-Instruct through xllamacpp, optional: `make model`).
"""
