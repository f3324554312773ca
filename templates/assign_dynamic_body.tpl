  // {{SRC}}'s elements, copied into {{DST}}'s distribution by the runtime,
  // which computes the schedule ({{ALGORITHM}}) on first use and caches it.
  redist::directive::checkSameComm({{SRC_COMM}}, {{DST_COMM}}, "{{WHERE}}");
  redist::directive::assign(
      redistc_dst, redistc_src,
      redist::directive::dynamicPlan<decltype(redistc_src)>(
          {{SRC_DIST}},
          redist::directive::assignTarget({{DST_DIST}}, {{SRC_EXTENT}},
                                          {{DST_EXTENT}}),
          {{SRC_EXTENT}}, {{SRC_COMM}}, "{{ALGORITHM}}", "{{WHERE}}"{{VERIFY}}{{EFFORT}}),
      "{{WHERE}}");
