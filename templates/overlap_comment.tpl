  // Overlapped schedule '{{ALGORITHM}}', computed by redistc at translation
  // time: makespan {{MAKESPAN}} (lower bound T_opt = {{MAKESPAN_LOWER_BOUND}}),
  // {{EVENTS}}, {{SPLIT}}. The tables hold every message in step 0
  // and the events order them. The one call below runs the runtime's executor
  // on these tables (redist/runtime/Translated.h): each rank sends its events
  // in the order of their starts, one at a time, and receives likewise.
