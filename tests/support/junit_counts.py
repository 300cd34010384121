# Reads a JUnit XML file with junitparser (Debian: python3-junitparser), a
# JUnit consumer other than tierbench itself, and prints what it read:
#   suites N
#   declared TESTS FAILURES ERRORS SKIPPED   (the suites' attributes)
#   counted TESTS FAILURES ERRORS SKIPPED    (the test cases' results)
# Exit 1 with the reason when junitparser cannot read the file.
# Run by tests/integration/junit_consumer.cc as /usr/bin/python3 FILE XML.
import sys

import junitparser

try:
    xml = junitparser.JUnitXml.fromfile(sys.argv[1])
except Exception as e:  # junitparser's and the XML parser's errors alike
    print("junitparser cannot read %s: %s" % (sys.argv[1], e))
    sys.exit(1)
suites = [xml] if isinstance(xml, junitparser.TestSuite) else list(xml)
declared = [0, 0, 0, 0]
counted = [0, 0, 0, 0]
for suite in suites:
    # A suite without one of the four attributes is a defect of the file
    # (the consumer would show no count), never a 0.
    for i, name in enumerate(("tests", "failures", "errors", "skipped")):
        if suite._elem.get(name) is None:
            print("%s: a testsuite has no %s= attribute" % (sys.argv[1], name))
            sys.exit(1)
        declared[i] += getattr(suite, name)
    for case in suite:
        counted[0] += 1
        # One outcome per case: its first result element, as a consumer
        # shows it.
        for result in case.result[:1]:
            if isinstance(result, junitparser.Failure):
                counted[1] += 1
            elif isinstance(result, junitparser.Error):
                counted[2] += 1
            elif isinstance(result, junitparser.Skipped):
                counted[3] += 1
print("suites", len(suites))
print("declared", *declared)
print("counted", *counted)
