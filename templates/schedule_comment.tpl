  // Schedule '{{ALGORITHM}}', computed by redistc at translation time:
  // {{STEPS}}{{NON_EMPTY}} (lower bound {{STEPS_LOWER_BOUND}}),
  // cost {{COST}} (lower bound {{COST_LOWER_BOUND}}).
  // The runtime's executor follows these tables (redist/runtime/Translated.h):
  // in each step a rank sends one message and receives one, over MPI or,
  // where the two ranks share a node, through shared memory.
