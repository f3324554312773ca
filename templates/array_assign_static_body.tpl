{{SCHEDULE_COMMENT}}
  // The messages, step by step: step, source process, target process,
  // elements (process ids in the arrangements' orders). The runtime checks
  // that the layouts and the region are those named here and the messages
  // those of the grid it computes from them; elements of {{DST_VAR}} outside
  // the region keep their values.
  static constexpr redist::TranslatedArrayMessage redistc_messages[] = {
{{MESSAGES}}  };
  static constexpr redist::TranslatedArraySchedule redistc_schedule = {
      "{{WHERE}}", "{{ALGORITHM}}",
      {{FROM_KEY}},
      {{TO_KEY}},
      {{STEPS_COUNT}}, {{MESSAGE_COUNT}}, redistc_messages};
  redist::directive::checkSameComm({{SRC_COMM}}, {{DST_COMM}}, "{{WHERE}}");
  // Checks both variables' sizes on every rank, then moves the data step by
  // step.
  redist::directive::AssignSteps redistc_steps(
      redistc_dst, redistc_src,
      redist::directive::staticArrayPlan<decltype(redistc_src)>(
          redistc_schedule, {{SRC_LAYOUT}}, {{DST_LAYOUT}}, redistc_region,
          {{SRC_COMM}}{{VERIFY}}),
      "{{WHERE}}");
{{STEP_CALLS}}
