{{SCHEDULE_COMMENT}}
{{TABLES}}
  redist::directive::checkSameComm({{SRC_COMM}}, {{DST_COMM}}, "{{WHERE}}");
  redist::directive::assign(
      redistc_dst, redistc_src,
      redist::directive::staticPlan<decltype(redistc_src)>(redistc_schedule,
                                                           {{SRC_COMM}}{{VERIFY}}),
      "{{WHERE}}");
