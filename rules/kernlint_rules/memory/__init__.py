"""Memory access patterns (KL601–KL603): global accesses whose sub-group spreads over more sectors than
its bytes need, local-memory accesses whose lanes queue on one bank, arrays of structs read one member
at a time. Each is priced with the device's memory model (`costs`) from the lane strides of the
memory-access facts."""
