{{SCHEDULE_COMMENT}}
{{TABLES}}
{{COMM_CHECK}}
  redist::directive::redistribute(
      redistc_var,
      redist::directive::staticPlan<decltype(redistc_var)>(redistc_schedule,
                                                           {{COMM}}{{VERIFY}}),
      "{{WHERE}}");
  {{FROM_DIST}} = {{TO_VALUE}};
