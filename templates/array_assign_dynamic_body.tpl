  // {{SRC_VAR}}'s elements{{REGION_TEXT}}, copied into {{DST_VAR}}'s layout by the
  // runtime, which computes the schedule ({{ALGORITHM}}) on first use and
  // caches it; elements of {{DST_VAR}} outside the region keep their values.
  redist::directive::checkSameComm({{SRC_COMM}}, {{DST_COMM}}, "{{WHERE}}");
  redist::directive::assign(
      redistc_dst, redistc_src,
      redist::directive::dynamicArrayPlan<decltype(redistc_src)>(
          {{SRC_LAYOUT}}, {{DST_LAYOUT}}, redistc_region, {{SRC_COMM}},
          "{{ALGORITHM}}", "{{WHERE}}"{{VERIFY}}),
      "{{WHERE}}");
