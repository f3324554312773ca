{{SCHEDULE_COMMENT}}
{{TABLES}}
  redistc_detail::checkSameComm({{SRC_COMM}}, {{DST_COMM}}, "{{WHERE}}");
  redistc_detail::assignWithTables(redistc_dst, redistc_src, redistc_exchange,
                                   {{SRC_COMM}}, "{{WHERE}}");
