  // Schedule '{{ALGORITHM}}', computed by redistc at translation time:
  // {{STEPS}}{{NON_EMPTY}} (lower bound {{STEPS_LOWER_BOUND}}),
  // cost {{COST}} (lower bound {{COST_LOWER_BOUND}}).
  // Each step call below runs the runtime's executor on these tables
  // (redist/runtime/Translated.h): in a step a rank sends at most one message
  // and receives at most one over MPI. Messages between ranks that share a
  // node go through shared memory, usually all at once in the first call.
