// redistc: redistribute {{VAR}}({{FORMAT}}){{ONTO}}{{SCHEDULE}}: static,
// {{FROM}} -> {{TO}} of {{EXTENT_VALUE}} elements
#line {{LINE}} {{INPUT}}
{ auto &redistc_var = {{VAR}};{{USES}}
#line {{OUTPUT_LINE}} {{OUTPUT}}
{{SCHEDULE_COMMENT}}
{{TABLES}}
{{COMM_CHECK}}
  redistc_detail::redistributeVector(redistc_var, redistc_exchange, {{COMM}},
                                     "{{WHERE}}");
  {{FROM_DIST}} = {{TO_VALUE}};
}
#line {{NEXT_LINE}} {{INPUT}}
