"""SYCL API readers of the C/C++ front-end: the API's names, constructions of buffers, accessors and queues,
kernel launches and their ranges, read from how the code spells them."""
