; Accessor-usage analysis (tree-sitter-cpp). Runs on one small subtree at a time: a kernel body, the
; body of a helper function or functor method, or a command group; never on a whole file.

; Every name: accessor references by name (lambda captures, functor members, helper parameters).
(identifier) @ref
; A name parsed as a type: the "most vexing parse" turns `atomic_ref<…> r(acc[0]);` and
; `Kernel k(acc);` into declarations whose parameter types are the arguments.
(type_identifier) @type_ref
; `this->member`.
(field_expression argument: (this) field: (field_identifier) @member_ref)

; Locals with their initial values, and every assignment, for "is this the work-item's own index?".
(init_declarator declarator: (identifier) value: (_) @local.value)
(assignment_expression left: (identifier) @assigned)
(update_expression argument: (identifier) @assigned)

; Code pulled in by `#include` inside a body: its uses of the accessor cannot be seen.
(preproc_include) @include

; Jumps that can skip a later write.
[(return_statement) (goto_statement) (break_statement) (continue_statement)] @jump
