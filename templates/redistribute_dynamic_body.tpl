  // The runtime computes the schedule ({{ALGORITHM}}) on first use and caches
  // it; {{VAR}} is resized to its new local size.
{{COMM_CHECK}}
  redist::PlanOptions redistc_options;
  redistc_options.Schedule = redistc_detail::algorithm("{{ALGORITHM}}");
  redist::redistribute(redistc_var, {{FROM_DIST}}, redistc_to, {{EXTENT}},
                       {{COMM}}, redistc_options);
  {{FROM_DIST}} = redistc_to;
