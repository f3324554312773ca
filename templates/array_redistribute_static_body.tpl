{{SCHEDULE_COMMENT}}
  // The messages, step by step: step, source process, target process,
  // elements (process ids in the arrangements' orders). The runtime checks
  // that the layouts are those named here and the messages those of the
  // grid it computes from them, and cuts each into strided runs.
  static constexpr redist::TranslatedArrayMessage redistc_messages[] = {
{{MESSAGES}}  };
  static constexpr redist::TranslatedArraySchedule redistc_schedule = {
      "{{WHERE}}", "{{ALGORITHM}}",
      {{FROM_KEY}},
      {{TO_KEY}},
      {{STEPS_COUNT}}, {{MESSAGE_COUNT}}, redistc_messages};
{{COMM_CHECK}}
  // Checks the size of each rank's local part, then moves the data step by
  // step.
  redist::directive::RedistributeSteps redistc_steps(
      redistc_var,
      redist::directive::staticArrayPlan<decltype(redistc_var)>(
          redistc_schedule, {{FROM_DIST}}, redistc_to, {}, {{COMM}}{{VERIFY}}),
      "{{WHERE}}");
{{STEP_CALLS}}
  redistc_steps.finish();
  {{FROM_DIST}} = redistc_to.value("{{WHERE}}");
