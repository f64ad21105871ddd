"""Work-item dependence of SYCL device code: tree-sitter nodes lowered into `kernlint.analysis.dependence`,
with reaching definitions per unit (kernel body, device function, nested lambda)."""
