# redist_translate(TARGET <target> SOURCES <file>... [DYNAMIC] [REPORT]
#                  [MODEL <model file>] [OPTIONS <redistc option>...])
#
# Translates C++ sources holding #pragma redist directives with redistc and
# compiles the translations into <target>, which is linked to the redist
# runtime. Each translation is a custom command that re-runs when its source,
# a header the source includes, or redistc (whose code templates are built
# into it) changes. redistc gets the target's include directories, compile
# definitions (its directory's included) and C++ standard (CXX_STANDARD,
# cxx_std_NN features, CXX_EXTENSIONS), so it parses the file the way the
# compiler will.
#   DYNAMIC  use the runtime for every directive (redistc --dynamic)
#   REPORT   print redistc's per-directive report while building
#   MODEL    the cost model file auto weighs the static schedules with
#            (redistc --model; redist-calibrate writes one); editing it
#            translates again
#   OPTIONS  further redistc options, e.g. --static-table-limit=1000
#
# List the annotated sources here rather than in add_executable; if they are
# listed there as well, they are not compiled untranslated.
#
# Works in redist's own build (targets redistc and redist::runtime) and after
# find_package(Redist) (imported targets redist::redistc, redist::runtime).
include_guard(GLOBAL)

function(redist_translate)
  cmake_parse_arguments(PARSE_ARGV 0 RT "DYNAMIC;REPORT" "TARGET;MODEL"
                        "SOURCES;OPTIONS")
  if(NOT RT_TARGET OR NOT TARGET ${RT_TARGET})
    message(FATAL_ERROR "redist_translate: TARGET must name an existing "
                        "target (got '${RT_TARGET}')")
  endif()
  if(NOT RT_SOURCES)
    message(FATAL_ERROR "redist_translate: no SOURCES for ${RT_TARGET}")
  endif()
  if(RT_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "redist_translate: unknown arguments "
                        "${RT_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET redist::redistc)
    message(FATAL_ERROR "redist_translate: redistc is not available; "
                        "find_package(Redist) first")
  endif()
  # The real target behind the in-tree alias (an imported one has none).
  get_target_property(_tool redist::redistc ALIASED_TARGET)
  if(NOT _tool)
    set(_tool redist::redistc)
  endif()

  # What the compiler will see: include directories and definitions,
  # including those of linked targets, and the C++ standard. Generator
  # expressions read them when the build is generated, so that settings made
  # after this call count too. The target's COMPILE_DEFINITIONS then already
  # holds its directory's (add_compile_definitions, add_definitions).
  set(_tgt ${RT_TARGET})
  set(_includes "$<TARGET_PROPERTY:${_tgt},INCLUDE_DIRECTORIES>")
  set(_defines "$<TARGET_PROPERTY:${_tgt},COMPILE_DEFINITIONS>")

  # The standard: like CMake, the highest of CXX_STANDARD and the cxx_std_NN
  # compile features (the target's and those of the targets it links), never
  # below the cxx_std_17 added below.
  set(_standard_property "$<TARGET_PROPERTY:${_tgt},CXX_STANDARD>")
  set(_features "$<TARGET_PROPERTY:${_tgt},COMPILE_FEATURES>")
  set(_standard 17)
  foreach(_level 20 23 26)
    set(_by_property "$<STREQUAL:${_standard_property},${_level}>")
    set(_by_feature "$<IN_LIST:cxx_std_${_level},${_features}>")
    set(_standard
        "$<IF:$<OR:${_by_property},${_by_feature}>,${_level},${_standard}>")
  endforeach()
  # GNU extensions (gnu++NN) unless CXX_EXTENSIONS is off; unset means the
  # compiler's default, which CMake records.
  set(_extensions_default 1)
  if(DEFINED CMAKE_CXX_EXTENSIONS_DEFAULT AND NOT CMAKE_CXX_EXTENSIONS_DEFAULT)
    set(_extensions_default 0)
  endif()
  set(_extensions_property "$<TARGET_PROPERTY:${_tgt},CXX_EXTENSIONS>")
  set(_extensions "$<IF:$<STREQUAL:${_extensions_property},>,\
${_extensions_default},$<BOOL:${_extensions_property}>>")
  set(_dialect "$<IF:${_extensions},gnu++,c++>")

  # Lists joined with $<SEMICOLON>: COMMAND_EXPAND_LISTS makes them separate
  # arguments.
  set(_flags
      "$<$<BOOL:${_includes}>:-I$<JOIN:${_includes},$<SEMICOLON>-I>>"
      "$<$<BOOL:${_defines}>:-D$<JOIN:${_defines},$<SEMICOLON>-D>>"
      "-std=${_dialect}${_standard}")

  set(_options ${RT_OPTIONS})
  if(RT_DYNAMIC)
    list(APPEND _options --dynamic)
  endif()
  if(RT_REPORT)
    list(APPEND _options --report)
  endif()
  set(_model_depends "")
  if(RT_MODEL)
    get_filename_component(_model ${RT_MODEL} ABSOLUTE
                           BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(NOT EXISTS ${_model})
      message(FATAL_ERROR "redist_translate: MODEL ${_model} does not exist")
    endif()
    list(APPEND _options --model=${_model})
    set(_model_depends ${_model})
  endif()

  set(_outdir ${CMAKE_CURRENT_BINARY_DIR}/redistc/${RT_TARGET})
  foreach(_source IN LISTS RT_SOURCES)
    get_filename_component(_abs ${_source} ABSOLUTE
                           BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    file(RELATIVE_PATH _rel ${CMAKE_CURRENT_SOURCE_DIR} ${_abs})
    string(REPLACE "../" "__/" _rel "${_rel}")
    set(_out ${_outdir}/${_rel})
    get_filename_component(_out_dir ${_out} DIRECTORY)
    add_custom_command(
      OUTPUT ${_out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${_out_dir}
      COMMAND ${_tool} ${_abs} -o ${_out} --depfile=${_out}.d ${_options}
              -- ${_flags}
      DEPENDS ${_abs} $<TARGET_FILE:${_tool}> ${_model_depends}
      DEPFILE ${_out}.d
      COMMENT "Translating ${_source} with redistc"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    target_sources(${RT_TARGET} PRIVATE ${_out})
    # Never compile the untranslated file.
    set_source_files_properties(${_abs} PROPERTIES HEADER_FILE_ONLY ON)
  endforeach()
  target_link_libraries(${RT_TARGET} PRIVATE redist::runtime)
  target_compile_features(${RT_TARGET} PRIVATE cxx_std_17)
endfunction()
