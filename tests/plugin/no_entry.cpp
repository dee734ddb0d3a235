// A shared library that is not an ssdsim FTL plug-in: it loads, but has
// neither ssdsim_ftl_plugin_api nor ssdsim_ftl_plugin_register.
extern "C" int some_other_library_function() { return 42; }
