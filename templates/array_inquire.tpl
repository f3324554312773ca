// redistc: inquire {{VAR}} into {{NAME}}: {{VAR}}'s layout and communicator as
// of here, and its local storage (redist/runtime/LocalPart.h)
#line {{LINE}} {{INPUT}}
const redist::DistributedArrayInfo {{NAME}}({{DIST}}, {{COMM}});
#line {{NEXT_LINE}} {{INPUT}}
