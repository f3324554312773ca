{{SIZE_TABLES}}
  // The messages, step by step: step, source, target, elements; then their
  // runs: first run series, series per slice, whole slices, the slice's
  // length on the source and on the target, series of the rest.
  static constexpr redist::TranslatedMessage redistc_messages[] = {
{{MESSAGES}}  };
  // Run series: source offset, target offset, run length, source step,
  // target step, runs.
  static constexpr redist::RunSeries redistc_series[] = {
{{SERIES}}  };
{{EVENT_TABLE}}  static constexpr redist::TranslatedSchedule redistc_schedule = {
      "{{WHERE}}", "{{ALGORITHM}}",
      {{FROM_CONSTANT}},
      {{TO_CONSTANT}},
      {{EXTENT_VALUE}}, {{STEPS_COUNT}}, {{MESSAGE_COUNT}}, redistc_messages, redistc_series,
      {{EVENT_COUNT}}, {{EVENTS}}};
