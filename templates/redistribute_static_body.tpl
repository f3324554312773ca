{{SCHEDULE_COMMENT}}
{{TABLES}}
{{COMM_CHECK}}
  // Checks the sizes on every rank, then moves the data {{MOVES}}.
  redist::directive::RedistributeSteps redistc_steps(
      redistc_var,
      redist::directive::staticPlan<decltype(redistc_var)>(redistc_schedule,
                                                           {{COMM}}{{VERIFY}}),
      "{{WHERE}}");
{{STEP_CALLS}}
  redistc_steps.finish();
  {{FROM_DIST}} = {{TO_VALUE}};
