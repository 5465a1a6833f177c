# Included at the end of project() by the `fuzz` preset (CMAKE_PROJECT_INCLUDE). That build has no
# GUI but keeps the test suite (its CTest tests run the fuzzer), and the tests need Qt's Core and
# Test modules and moc, which the top-level CMakeLists.txt only finds together with the GUI.
find_package(Qt6 6.4 REQUIRED COMPONENTS Core Test)
set(CMAKE_AUTOMOC ON)
