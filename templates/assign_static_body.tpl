{{SCHEDULE_COMMENT}}
{{TABLES}}
  redist::directive::checkSameComm({{SRC_COMM}}, {{DST_COMM}}, "{{WHERE}}");
  // Checks the sizes on every rank, then moves the data {{MOVES}}.
  redist::directive::AssignSteps redistc_steps(
      redistc_dst, redistc_src,
      redist::directive::staticPlan<decltype(redistc_src)>(
          redistc_schedule, {{SRC_COMM}},
          redist::directive::extentProblem({{SRC_EXTENT}}, {{DST_EXTENT}}){{VERIFY}}),
      "{{WHERE}}");
{{STEP_CALLS}}
