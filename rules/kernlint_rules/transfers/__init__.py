"""Host↔device data movement (KL7xx): what OpenMP `map` clauses copy against what the offloaded code
uses. KL705–KL708 read the map facts (`OmpConstruct.maps`: each list item's storage, element size and
extent) and the region's uses of each mapped variable (`OmpVariableUse`): a pointer mapped without the
data it points to, a variable copied but never used, a section larger than the code reaches, and data
behind pointers that a map does not follow. `map_items` holds what these rules share about the maps
of a whole file.
"""
