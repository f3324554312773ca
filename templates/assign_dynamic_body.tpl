  // {{SRC}}'s elements, copied into {{DST}}'s distribution by the runtime,
  // which computes the schedule ({{ALGORITHM}}) on first use and caches it.
  redistc_detail::checkSameComm({{SRC_COMM}}, {{DST_COMM}}, "{{WHERE}}");
  redistc_detail::checkSameExtent({{SRC_EXTENT}}, {{DST_EXTENT}}, "{{WHERE}}");
  redist::PlanOptions redistc_options;
  redistc_options.Schedule = redistc_detail::algorithm("{{ALGORITHM}}");
  redistc_detail::assignWithPlan(redistc_dst, redistc_src, {{SRC_DIST}},
                                 {{DST_DIST}}, {{SRC_EXTENT}}, {{SRC_COMM}},
                                 redistc_options, "{{WHERE}}");
