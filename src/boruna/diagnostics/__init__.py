"""Diagnostics behind `boruna_check`: `check_source(source, file)` → `DiagnosticSet`.

Modules: `model` (data + JSON views), `registry` (code table), `collector` (pipeline),
`compiler_errors` (E001–E004/E009 from the frontend), analyzers `exhaustiveness` (E005),
`record_fields` (E006), `capabilities` (E007), `type_consistency` (E009 warnings),
`entry_point` (MISSING_MAIN); helpers `context`, `source_text`, `naming`, `walk`,
`undefined_names`.
"""
from .collector import check_source
from .model import (Confidence, Diagnostic, DiagnosticSet, RelatedInfo, SourceLocation,
                    SuggestedPatch, TextEdit)
from .registry import ALL_CODES, CODES

__all__ = ["check_source", "Confidence", "Diagnostic", "DiagnosticSet", "RelatedInfo",
           "SourceLocation", "SuggestedPatch", "TextEdit", "CODES", "ALL_CODES"]
