  // The runtime computes the schedule ({{ALGORITHM}}) on first use and caches
  // it; {{VAR}} is resized to its new local part.
{{COMM_CHECK}}
  redist::directive::redistribute(
      redistc_var,
      redist::directive::dynamicArrayPlan<decltype(redistc_var)>(
          {{FROM_DIST}}, redistc_to, {}, {{COMM}}, "{{ALGORITHM}}", "{{WHERE}}"{{VERIFY}}),
      "{{WHERE}}");
  {{FROM_DIST}} = redistc_to.value("{{WHERE}}");
