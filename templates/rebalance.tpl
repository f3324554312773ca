// redistc: rebalance {{VAR}}({{COUNT}}) onto {{ARRANGEMENT}} ring({{DIRECTION}}){{CLAUSES}}: the runtime plans and moves the items
#line {{LINE}} {{INPUT}}
{ redist::RingOptions redistc_ring; redistc_ring.Bidirectional = {{BIDIRECTIONAL}}; redistc_ring.Algorithm = redist::RingAlgorithm::{{ALGORITHM}};{{COSTS}} redist::directive::rebalance({{VAR}}, ({{COUNT}}), {{COMM}}, redistc_ring, "{{WHERE}}"); }
#line {{NEXT_LINE}} {{INPUT}}
