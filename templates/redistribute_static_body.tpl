{{SCHEDULE_COMMENT}}
{{TABLES}}
{{COMM_CHECK}}
  redistc_detail::redistributeVector(redistc_var, redistc_exchange, {{COMM}},
                                     "{{WHERE}}");
  {{FROM_DIST}} = {{TO_VALUE}};
