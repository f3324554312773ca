  // Schedule '{{ALGORITHM}}', computed by redistc at translation time:
  // {{STEPS}}{{NON_EMPTY}} (lower bound {{STEPS_LOWER_BOUND}}),
  // cost {{COST}} (lower bound {{COST_LOWER_BOUND}}).
  // Nothing is scheduled at run time: each rank walks the constant tables
  // below and makes one MPI_Sendrecv per step.
{{STEP_LIST}}
