// redistc: redistribute {{VAR}}({{FORMAT}}){{ONTO}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: static,
// {{FROM}} -> {{TO}}
#line {{LINE}} {{INPUT}}
{ auto &redistc_var = {{VAR}};{{USES}}
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{SCHEDULE_COMMENT}}
{{SIZE_TABLES}}
  // The messages, step by step: step, source process, target process,
  // elements (process ids in the grid's order). The runtime checks them
  // against the grid it computes from the two layouts, and cuts each into
  // strided runs of the local matrices.
  static constexpr redist::TranslatedMatrixMessage redistc_messages[] = {
{{MESSAGES}}  };
  static constexpr redist::TranslatedMatrixSchedule redistc_schedule = {
      "{{WHERE}}", "{{ALGORITHM}}",
      {{FROM_CONSTANT}},
      {{TO_CONSTANT}},
      {{STEPS_COUNT}}, {{MESSAGE_COUNT}}, redistc_messages};
{{COMM_CHECK}}
  // Checks the size of each rank's local matrix, then moves the data step by
  // step.
  redist::directive::RedistributeSteps redistc_steps(
      redistc_var,
      redist::directive::staticMatrixPlan<decltype(redistc_var)>(
          redistc_schedule, {{COMM}}{{VERIFY}}),
      "{{WHERE}}");
{{STEP_CALLS}}
  redistc_steps.finish();
  {{FROM_DIST}} = redistc_schedule.To.value();
}
#line {{NEXT_LINE}} {{INPUT}}
