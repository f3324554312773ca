// redistc: redistribute {{VAR}}({{FORMAT}}){{ONTO}}{{SCHEDULE}}{{VERIFY_CLAUSE}}: dynamic, because
// {{WHY}}
#line {{LINE}} {{INPUT}}
{ auto &redistc_var = {{VAR}}; const redist::directive::MatrixTarget redistc_to = redist::directive::matrixTarget({{ROWS_INIT}}, {{COLS_INIT}}, {{FROM_DIST}}.numRows(), {{FROM_DIST}}.numCols(), {{ORDER}});
#line {{OUTPUT_LINE}} {{OUTPUT}}
  // The runtime computes the schedule ({{ALGORITHM}}) on first use and caches
  // it; {{VAR}} is resized to its new local matrix.
{{COMM_CHECK}}
  redist::directive::redistribute(
      redistc_var,
      redist::directive::dynamicMatrixPlan<decltype(redistc_var)>(
          {{FROM_DIST}}, redistc_to, {{COMM}}, "{{ALGORITHM}}", "{{WHERE}}"{{VERIFY}}),
      "{{WHERE}}");
  {{FROM_DIST}} = redistc_to.value("{{WHERE}}");
}
#line {{NEXT_LINE}} {{INPUT}}
