"""The linter behind `boruna_check`/`boruna_repair`: `check_source(source, file)` →
`DiagnosticSet`; `repair.repair_source` applies the fixes it offers.

Layers, bottom-up: `fix` (Fix, Edit, Applicability) and `model` (Diagnostic, DiagnosticSet
and their JSON views), `apply` (applying a fix's edits to text), the rules (`compiler_errors`
with `parse_fixes` and `variant_values`, `undefined_names`, `exhaustiveness`,
`record_fields`, `missing_fields`, `field_access`, `capabilities`, `type_names`,
`types`, `entry_point`; helpers `context`, `source_text`, `naming`,
`builtin_aliases`), `collector` (the pipeline), `repair` (selection and the repair loop).
`registry` holds the code table.
"""
from .collector import check_source
from .model import (Applicability, Confidence, Diagnostic, DiagnosticSet, Edit, Fix, Label,
                    RelatedInfo, SourceLocation, SuggestedPatch, TextEdit)
from .registry import ALL_CODES, CODES

__all__ = ["check_source", "Applicability", "Confidence", "Diagnostic", "DiagnosticSet",
           "Edit", "Fix", "Label", "RelatedInfo", "SourceLocation", "SuggestedPatch",
           "TextEdit", "CODES", "ALL_CODES"]
