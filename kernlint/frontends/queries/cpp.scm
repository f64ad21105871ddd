; Structural search for the C/C++ front-end (tree-sitter-cpp). Runs once per file, in C.
; Python only looks at what these patterns capture.

; Loops, for host/device classification and KL101.
(for_statement) @loop.for
(for_range_loop) @loop.range-for
(while_statement) @loop.while
(do_statement) @loop.do

; Member calls that matter: launches, command groups, accessor factories, barriers, and the host side's
; waits and copies (host flows).
((call_expression
   function: (field_expression
     field: [(field_identifier) @member.name
             (template_method name: (field_identifier) @member.name)
             (dependent_name (template_method name: (field_identifier) @member.name))])) @member.call
 (#any-of? @member.name
   "parallel_for" "single_task" "parallel_for_work_group" "submit"
   "get_access" "get_host_access" "barrier"
   "wait" "wait_and_throw" "memcpy" "memset" "fill" "copy" "prefetch"))

; Free-function launches (`sycl::ext::oneapi::experimental::parallel_for(q, r, k)`, `nd_launch`,
; `single_task`); Python keeps those whose qualifier is SYCL's (not Kokkos' or TBB's).
((call_expression
   function: [(identifier) (qualified_identifier) (template_function)] @launch.callee) @launch.call
 (#match? @launch.callee "(^|:)(parallel_for|nd_launch|single_task)(<|$| )"))

; Kernels by what they are: a lambda or function with a parameter whose type may spell a SYCL index
; (`sycl::nd_item<1>`, `item<2>`, `sycl::group<1>`, …); Python checks the spelling.
((lambda_expression
   declarator: (abstract_function_declarator
     parameters: (parameter_list (parameter_declaration type: (_) @kernel.type)))) @kernel.candidate
 (#match? @kernel.type "(^|:)(nd_item|item|id|group|h_item)(<|$| )"))
((function_definition
   declarator: (function_declarator
     parameters: (parameter_list (parameter_declaration type: (_) @kernel.type)))) @kernel.candidate
 (#match? @kernel.type "(^|:)(nd_item|item|id|group|h_item)(<|$| )"))

; Free calls and temporaries whose callee names a SYCL class or group function.
((call_expression
   function: [(identifier) (qualified_identifier) (template_function)] @free.callee) @free.call
 (#match? @free.callee "(^|:)(buffer|accessor|host_accessor|local_accessor|queue|group_barrier)(<|$| )"))
((compound_literal_expression
   type: (_) @free.callee) @free.call
 (#match? @free.callee "(^|:)(buffer|accessor|host_accessor|local_accessor|queue)(<|$| )"))
((new_expression
   type: (_) @free.callee) @free.call
 (#match? @free.callee "(^|:)(buffer|queue)(<|$| )"))

; USM allocations and the static `event::wait`, for host flows (KL7xx).
((call_expression
   function: [(identifier) (qualified_identifier) (template_function)] @host.callee) @host.call
 (#match? @host.callee "(^|:)((aligned_alloc|malloc)_(shared|device|host)|event::wait|event::wait_and_throw)(<|$| )"))

; Declarations whose type names a SYCL class (buffers, accessors, local memory, queues).
((declaration
   type: (_) @decl.type) @decl
 (#match? @decl.type "(^|:)(buffer|accessor|host_accessor|local_accessor|queue)(<|$| )"))

; Functor kernels: operator() defined inside a class or struct. Python (`scan.file_matches`) keeps an
; operator whose function is defined directly in the body of a named struct or class, and reads that
; class: spelled as one pattern from the struct down, the query costs about 14 ms more to compile.
(operator_name) @functor.op

; Preprocessor: pragmas (OpenMP), object macros and quoted includes for constant evaluation, every
; include (where a fix adds one).
((preproc_call
   directive: (preproc_directive) @pragma.directive) @pragma
 (#eq? @pragma.directive "#pragma"))
(preproc_include path: (string_literal (string_content) @include.path))
(preproc_include) @include

(ERROR) @error
