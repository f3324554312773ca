// redistc: redistribute {{VAR}}({{FORMAT}}){{ONTO}}{{SCHEDULE}}: dynamic, because
// {{WHY}}
#line {{LINE}} {{INPUT}}
{ auto &redistc_var = {{VAR}}; const redist::Distribution redistc_to = {{TO_INIT}};
#line {{OUTPUT_LINE}} {{OUTPUT}}
  // The runtime computes the schedule ({{ALGORITHM}}) on first use and caches
  // it; {{VAR}} is resized to its new local size.
{{COMM_CHECK}}
  redist::PlanOptions redistc_options;
  redistc_options.Schedule = redistc_detail::algorithm("{{ALGORITHM}}");
  redist::redistribute(redistc_var, {{FROM_DIST}}, redistc_to, {{EXTENT}},
                       {{COMM}}, redistc_options);
  {{FROM_DIST}} = redistc_to;
}
#line {{NEXT_LINE}} {{INPUT}}
