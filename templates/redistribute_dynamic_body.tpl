  // The runtime computes the schedule ({{ALGORITHM}}) on first use and caches
  // it; {{VAR}} is resized to its new local size.
{{COMM_CHECK}}
  redist::directive::redistribute(
      redistc_var,
      redist::directive::dynamicPlan<decltype(redistc_var)>(
          {{FROM_DIST}}, redistc_to, {{EXTENT}}, {{COMM}}, "{{ALGORITHM}}",
          "{{WHERE}}"{{VERIFY}}{{EFFORT}}),
      "{{WHERE}}");
  {{FROM_DIST}} = redistc_to.value("{{WHERE}}");
