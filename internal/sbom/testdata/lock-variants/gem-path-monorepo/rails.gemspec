# frozen_string_literal: true

Gem::Specification.new do |s|
  s.name    = "rails"
  s.version = "7.1.3"
  s.summary = "Full-stack web application framework."
  s.add_dependency "actioncable", s.version
  s.add_dependency "actionpack",  s.version
end
